// web-test-runner runs the browser tests with mocha's globals; @types/mocha is not a dependency, so
// the few globals the tests use are declared here for the type checker.
type MochaDone = (error?: unknown) => void;
type MochaTest = ((this: unknown) => void | Promise<unknown>) | ((this: unknown, done: MochaDone) => void);

/** The part of mocha's suite context the tests use: a per-suite limit for slow, many-run properties. */
interface MochaSuiteContext {
  timeout(ms: number): void;
}

declare function describe(title: string, body: (this: MochaSuiteContext) => void): void;
declare function it(title: string, body: MochaTest): void;
declare function before(body: MochaTest): void;
declare function after(body: MochaTest): void;
declare function beforeEach(body: MochaTest): void;
declare function afterEach(body: MochaTest): void;
