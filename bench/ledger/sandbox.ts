// The sandbox in its own process for bench/ledger, so the payouts' latency is a real loopback round
// trip to another process. Sends its URL to the parent and runs until killed.
import { startSandbox } from '../../src/sandbox/index.js';
import { MERCHANT, SECRET } from './shared.js';

const sandbox = await startSandbox({ merchantId: MERCHANT, secret: SECRET });
process.send?.({ url: sandbox.url });
