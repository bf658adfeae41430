'use client';
// The element and its events in a client component, through pay-form/react (docs/frameworks.md).
import { useState } from 'react';
import { PayFormReact } from 'pay-form/react';

export function Checkout({ serviceUrl }: { serviceUrl: string }) {
  const [events, setEvents] = useState<string[]>([]);
  const seen = (event: Event) => setEvents((list) => [...list, event.type]);
  return (
    <>
      <PayFormReact baseUrl={serviceUrl} tokenUrl="/api/pay-token" orderRef="order-1" onPayFormOpen={seen} onPayFormReady={seen} onPayFormError={seen} />
      <ol id="events">
        {events.map((name) => (
          <li key={name}>{name}</li>
        ))}
      </ol>
    </>
  );
}
