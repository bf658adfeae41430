import { useState } from 'react';
import { PayFormReact } from 'pay-form/react';

const serviceUrl = new URLSearchParams(location.search).get('service') ?? 'https://pay.example';

export function App() {
  const [events, setEvents] = useState<string[]>([]);
  const seen = (event: Event) => setEvents((list) => [...list, event.type]);
  return (
    <>
      <PayFormReact baseUrl={serviceUrl} tokenUrl="/api/pay-token" orderRef="order-1" onPayFormOpen={seen} onPayFormReady={seen} onPayFormError={seen} />
      <ol id="events">{events.map((name) => <li key={name}>{name}</li>)}</ol>
    </>
  );
}
