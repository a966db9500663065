import { PlaceholderPage } from '../components/PlaceholderPage'

/** TO BE BUILT: Stock evolution and supply advice (SPEC §2 "Supply screen"), route /dis/supply. */
export function DistributorSupply() {
  return <PlaceholderPage title="Evolution des stocks et conseils d'approvisionnement" />
}
