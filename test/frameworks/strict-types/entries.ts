// Imports each browser entry so that tsc checks its declarations (and what they import) line by line.
import 'pay-form/svelte';
import 'pay-form/vue';
import 'pay-form/react';
import 'pay-form/return';
import type { PayForm } from 'pay-form';

export const form: PayForm | null = document.querySelector('pay-form');
