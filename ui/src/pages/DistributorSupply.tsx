import { SupplyScreen } from '../supply/SupplyScreen'

/** Stock evolution and supply advice (PRODUCT §2 "Supply screen"), route /dis/supply. */
export function DistributorSupply() {
  return <SupplyScreen />
}
