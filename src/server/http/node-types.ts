// What toNodeHandler uses of node:http's request and response, typed by the members used, not by
// node:http: pay-form/server's declarations then type-check in a Workers or Deno project that has no
// Node types (docs/server.md). Express's Request and Response fit too.
/** What the adapter reads of a request: node:http's IncomingMessage and Express's Request fit. */
export interface NodeRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly socket: object;
  readonly readableEnded: boolean;
  readonly readableDidRead: boolean;
  readonly destroyed: boolean;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  off(event: 'error', listener: (error: unknown) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  once(event: 'error', listener: (error: unknown) => void): unknown;
  pause(): unknown;
}

/** What the adapter uses of a response: node:http's ServerResponse and Express's Response fit. */
export interface NodeResponse {
  shouldKeepAlive: boolean;
  readonly headersSent: boolean;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  writeHead(status: number, headers: Record<string, string | string[]>): unknown;
  write(chunk: Uint8Array): boolean;
  end(text?: string): unknown;
  once(event: 'close' | 'drain', listener: () => void): unknown;
  destroy(): unknown;
}

export type NodeHandler = (req: NodeRequest, res: NodeResponse, next?: (error?: unknown) => void) => void;
