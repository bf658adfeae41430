// A Server Component page; the checkout with its event handlers is a client component, app/checkout.tsx,
// which the test writes from docs/frameworks.md (the service and the order come from the query here).
import { Checkout } from './checkout';

export default async function Page({ searchParams }: { searchParams: Promise<{ service?: string; order?: string }> }) {
  const { service, order } = await searchParams;
  return <Checkout serviceUrl={service ?? 'https://pay.example'} orderRef={order ?? 'order-2'} />;
}
