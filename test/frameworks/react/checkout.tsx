// A React 19 checkout using pay-form: the wrapper's typed props and events, and the raw tag's JSX typings.
import { useRef, useState } from 'react';
import { PayFormReact, type PayForm } from 'pay-form/react';
import type { PayFormErrorCode } from 'pay-form';

export function Checkout({ orderRef }: { orderRef: string }) {
  const form = useRef<PayForm>(null);
  const [status, setStatus] = useState<'success' | 'fail' | null>(null);
  const [error, setError] = useState<PayFormErrorCode | null>(null);
  return (
    <>
      <PayFormReact
        ref={form}
        baseUrl="https://pay.example"
        tokenUrl="/api/pay-token"
        orderRef={orderRef}
        display="modal"
        loadTimeout={20000}
        onPayFormSuccess={(event) => setStatus(event.detail.status)}
        onPayFormFail={(event) => setStatus(event.detail.status)}
        onPayFormError={(event) => setError(event.detail.code)}
        onPayFormClose={(event) => console.log(event.detail.reason === 'user')}
      />
      <pay-form
        base-url="https://pay.example"
        token-url="/api/pay-token"
        order-ref={orderRef}
        display="inline"
        onpay-form-success={(event) => setStatus(event.detail.status)}
        onpay-form-error={(event) => setError(event.detail.code)}
      />
      <button type="button" onClick={() => form.current?.close()}>
        Cancel
      </button>
      {status && <p role="status">{status}</p>}
      {error && <p role="alert">{error}</p>}
    </>
  );
}
