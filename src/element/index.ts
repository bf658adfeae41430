// The `pay-form` entry: defines <pay-form> and exports everything `pay-form/element` does.
import './pay-form-define.js';
import './popup.js';

export * from './element.js';
