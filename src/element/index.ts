// The `pay-form` entry: defines <pay-form> and exports everything `pay-form/element` does.
// 'use client': imported from a React Server Component, the tag must still be defined in the browser.
'use client';
import './pay-form-define.js';

export * from './element.js';
