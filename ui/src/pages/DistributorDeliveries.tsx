import { PlaceholderPage } from '../components/PlaceholderPage'

/** TO BE BUILT: Distributor receptions (SPEC §2 "Deliveries page"), route /dis/deliveries. */
export function DistributorDeliveries() {
  return <PlaceholderPage title="Livraisons passees et futures" />
}
