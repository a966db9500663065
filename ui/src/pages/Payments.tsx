import { PaymentsScreen } from '../payments/PaymentsScreen'

/** What is owed and paid (PRODUCT §16 "Payments"): /dis/payments "À payer", /prod/payments "À encaisser". */
export function Payments() {
  return <PaymentsScreen />
}
