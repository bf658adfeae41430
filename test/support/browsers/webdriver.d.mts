// Types for test/support/browsers/webdriver.mjs.
export declare function startWebKitDriver(options: { driver: string; xvfbRun?: string }): Promise<{ url: string; stop(): Promise<void> }>;
export declare function webKitDriver(options: { driver: string; xvfbRun?: string; capabilities: Record<string, unknown> }): Promise<{ session(): Promise<WebDriverSession>; stop(): Promise<void> }>;
export declare const ELEMENT: 'element-6066-11e4-a52e-4f735466cecf';
export type ElementReference = { [ELEMENT]: string };
export declare class WebDriverSession {
  static create(driverUrl: string, capabilities: Record<string, unknown>): Promise<WebDriverSession>;
  readonly capabilities: Record<string, unknown>;
  command<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  navigate(url: string): Promise<void>;
  url(): Promise<string>;
  execute<T = unknown>(script: string, args?: unknown[]): Promise<T>;
  executeAsync<T = unknown>(script: string, args?: unknown[]): Promise<T>;
  click(element: ElementReference): Promise<void>;
  frame(element: ElementReference | null): Promise<void>;
  keys(keys: string[]): Promise<void>;
  setWindowSize(width: number, height: number): Promise<unknown>;
  screenshot(): Promise<Buffer>;
  delete(): Promise<void>;
}
