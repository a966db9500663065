// What a producer lacks before it may propose (PRODUCT §2 "Trade blocks",
// §8 "Business refusals"): said in the proposal form before it types, with
// a link to the field of the profile form.
import { Alert, Anchor } from '@mantine/core'
import { Link } from 'wouter'
import { useUser } from '../store/hooks'
import { NO_DELIVERY_DAYS_NOTICE, hasDeliveryDays, profileLink } from './checklist'

/** Whether the logged-in user is a producer the daemon would refuse a proposal (no delivery days). */
export function useProposalBlocked(): boolean {
  const user = useUser()
  return user?.type === 'producer' && !hasDeliveryDays(user)
}

/** The notice at the top of the proposal form of a producer without delivery days. */
export function ProposalPrerequisites() {
  if (!useProposalBlocked()) return null
  return (
    <Alert color="orange" variant="light" title="Jours de livraison à choisir">
      {NO_DELIVERY_DAYS_NOTICE} {/* Green 8: green 6 on the alert's pale orange was 4.49:1 (axe: color-contrast). */}
      <Anchor component={Link} href={profileLink('defaultDeliveryDays')} fw={600} c="green.8">
        Choisir mes jours de livraison
      </Anchor>
    </Alert>
  )
}
