// Types for test/support/browsers/engines.mjs, so TypeScript tests, scripts and benches start the engines the same way.
export type Engine = 'chromium' | 'firefox' | 'webkit';
export declare const ENGINES: Engine[];
export declare function selectedEngines(): Engine[];
export interface Requirement {
  what: string;
  env: string;
  paths: string[];
  pkg: string;
}
export declare const REQUIREMENTS: Record<Engine | 'redis', Requirement[]>;
export declare function locate(requirement: Requirement): string | null;
export declare function missing(groups: (Engine | 'redis')[]): Requirement[];
export declare function installCommand(requirements: Requirement[]): string;
export declare const chromiumArgs: string[];
export declare function chromiumLaunchOptions(): { executablePath: string; headless: boolean; args: string[] };
export declare function firefoxLaunchOptions(): { browser: 'firefox'; executablePath: string; headless: boolean };
export declare function firefoxPage<P extends { setViewport(viewport: never): Promise<unknown> }>(page: P): P;
export declare function webkitOptions(): { driver: string; xvfbRun: string; capabilities: Record<string, unknown> };
