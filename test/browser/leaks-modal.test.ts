// No leaks, with a budget (issue 30), in the modal display: see leak-cycles.ts.
import { CYCLES, leakTest } from './leak-cycles.js';

describe('leaks (modal)', function () {
  this.timeout(200000);
  leakTest('modal', CYCLES);
});
