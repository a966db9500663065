import { DeliveriesPage } from '../deliveries/DeliveriesPage'

/** Producer deliveries, "Livrer" (PRODUCT §2 "Deliveries page"), route /prod/deliveries. */
export function ProducerDeliveries() {
  return <DeliveriesPage />
}
