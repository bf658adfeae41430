// A Server Component page; the checkout with its event handlers is a client component.
import { Checkout } from './checkout';

export default async function Page({ searchParams }: { searchParams: Promise<{ service?: string }> }) {
  const { service } = await searchParams;
  return <Checkout serviceUrl={service ?? 'https://pay.example'} />;
}
