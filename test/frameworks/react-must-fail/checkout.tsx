// Must NOT compile: the wrapper's props are typed (loadTimeout is a number, display a known value).
import { PayFormReact } from 'pay-form/react';

export function Checkout() {
  return <PayFormReact baseUrl="https://pay.example" loadTimeout="soon" />;
}
