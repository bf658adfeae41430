// Must NOT compile: pay-form-success's $event is CustomEvent<PayFormSuccessDetail>, not an error event.
import { Component, CUSTOM_ELEMENTS_SCHEMA } from '@angular/core';
import 'pay-form';
import type { PayFormErrorDetail } from 'pay-form';

@Component({
  selector: 'app-checkout',
  standalone: true,
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `<pay-form base-url="https://pay.example" (pay-form-success)="onError($event)"></pay-form>`,
})
export class CheckoutComponent {
  onError(event: CustomEvent<PayFormErrorDetail>): string {
    return event.detail.code;
  }
}
