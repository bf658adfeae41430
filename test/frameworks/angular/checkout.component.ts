// An Angular standalone component using <pay-form>: CUSTOM_ELEMENTS_SCHEMA lets the tag through, and
// with strictTemplates the `(pay-form-…)` handlers get $event typed from HTMLElementEventMap.
import { Component, CUSTOM_ELEMENTS_SCHEMA, Input, signal } from '@angular/core';
import 'pay-form';
import type { PayFormErrorDetail, PayFormFailDetail, PayFormSuccessDetail } from 'pay-form';

@Component({
  selector: 'app-checkout',
  standalone: true,
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: `
    <pay-form
      base-url="https://pay.example"
      token-url="/api/pay-token"
      [attr.order-ref]="orderRef"
      display="modal"
      (pay-form-success)="onResult($event)"
      (pay-form-fail)="onResult($event)"
      (pay-form-error)="onError($event)"
    ></pay-form>
    @if (status()) {
      <p role="status">{{ status() }}</p>
    }
  `,
})
export class CheckoutComponent {
  @Input({ required: true }) orderRef!: string;
  readonly status = signal<'success' | 'fail' | null>(null);
  readonly error = signal<PayFormErrorDetail['code'] | null>(null);

  onResult(event: CustomEvent<PayFormSuccessDetail | PayFormFailDetail>): void {
    this.status.set(event.detail.status);
  }

  onError(event: CustomEvent<PayFormErrorDetail>): void {
    this.error.set(event.detail.code);
  }
}
