import { PlaceholderPage } from '../components/PlaceholderPage'

/** TO BE BUILT: Distributor planning (SPEC §2 "Needs planner", "Add bar and imports"), route /dis/needs. */
export function DistributorNeeds() {
  return <PlaceholderPage title="Planifier mes besoins" />
}
