import { Badge } from '@mantine/core'
import type { Snapshot } from 'valtio'
import type { components } from '../schema.gen'
import { paColor } from './PAStatus'

type PAState = components['schemas']['OrdersPAState']

/**
 * A document's status on the producer's approved platform beside its link
 * on the deliveries screens ("Plateforme : Déposée"), in the colours of the
 * payments screen; nothing until it is deposited.
 */
export function PABadge({ pa }: { pa?: Snapshot<PAState> }) {
  if (!pa) return null
  return (
    <Badge color={paColor(pa.status)} variant="outline" size="sm" aria-label={`Plateforme : ${pa.label}`}>
      Plateforme : {pa.label}
    </Badge>
  )
}
