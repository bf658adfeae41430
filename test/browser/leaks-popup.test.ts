// No leaks, with a budget (issue 30), in the popup display, each cycle opening its window: see leak-cycles.ts.
import { POPUP_CYCLES, leakTest } from './leak-cycles.js';

describe('leaks (popup)', function () {
  this.timeout(200000);
  leakTest('popup', POPUP_CYCLES);
});
