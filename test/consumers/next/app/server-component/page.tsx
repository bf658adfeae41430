// PayFormReact straight from a Server Component (no event handlers: functions cannot cross to the
// client). 'use client' in pay-form/react makes it a client reference instead of a build error.
import { PayFormReact } from 'pay-form/react';

export default async function Page({ searchParams }: { searchParams: Promise<{ service?: string }> }) {
  const { service } = await searchParams;
  return <PayFormReact baseUrl={service ?? 'https://pay.example'} tokenUrl="/api/pay-token" orderRef="order-3" />;
}
