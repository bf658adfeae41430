// MemoryCallbackStore keeps the attempt rules (test/support/attempt-contract.ts): one store, as one
// process's token and callback handlers share it.
import { describe } from 'node:test';
import { MemoryCallbackStore } from '../../../../src/server/index.js';
import { attemptContract } from '../../../support/contracts/attempt-contract.js';

describe('MemoryCallbackStore attempts', () => {
  const store = new MemoryCallbackStore();
  attemptContract(async () => store, 'memory-');
});
