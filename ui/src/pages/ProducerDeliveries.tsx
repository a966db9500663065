import { PlaceholderPage } from '../components/PlaceholderPage'

/** TO BE BUILT: Producer deliveries (SPEC §2 "Deliveries page"), route /prod/deliveries. */
export function ProducerDeliveries() {
  return <PlaceholderPage title="Livraisons passees et futures" />
}
