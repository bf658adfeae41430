// The `pay-form` entry: defines <pay-form> and exports everything `pay-form/element` does.
import { PayForm } from './pay-form-define.js';
import { registerModal } from './modal.js';
import { registerPopup } from './popup.js';

registerModal(PayForm);
registerPopup(PayForm);

export * from './element.js';
