// dist/pay-form-return.min.js, the return page's one script (docs/element.md, The return page): on load
// it reports the result in the page's URL to the framing <pay-form>, and shows the page's elements
// marked data-pay-form-result with that result. It runs when loaded, so no inline script is needed
// and a strict CSP stays strict; it is built as its own bundle, never imported by the npm entries.
import { completeReturn } from './return-page.js';

const { status } = completeReturn();
// status is 'success', 'fail' or null: nothing from the URL reaches the selector but those two words.
if (status) for (const node of document.querySelectorAll<HTMLElement>(`[data-pay-form-result="${status}"]`)) node.hidden = false;
