// Types for chromium.mjs, so TypeScript tests and scripts can start the same Chromium.
export declare const chromiumArgs: string[];
export declare function chromiumPath(): string;
export declare function launchOptions(): { executablePath: string; headless: boolean; args: string[] };
