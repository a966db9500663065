import { DeliveriesPage } from '../deliveries/DeliveriesPage'

/** Distributor receptions, "Récep." (PRODUCT §2 "Deliveries page"), route /dis/deliveries. */
export function DistributorDeliveries() {
  return <DeliveriesPage />
}
