import { Alert, Button, Stack } from '@mantine/core'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { useParams, useSearch } from 'wouter'
import { linkedNeedId } from '../planner/deepLink'
import type { Month } from '../planner/period'
import { Planner } from '../planner/Planner'
import { useDistributors, useLoading, useShopNeeds, useUser } from '../store/hooks'
import { NEED_MESSAGES, loadShopNeed, loadShopNeeds, newShopVisit } from '../store/needs'
import { loadShopCard, useShopCard } from '../store/shopmap'

/**
 * A producer's view of one shop's needs (PRODUCT §2, route
 * /prod/needs/:distributorId): the same planner, read-only, without add bar,
 * on the shop's needs loaded apart from the producer's own. The shop's name
 * comes from the user load when the producer trades with it, else from
 * `GET /api/shops/{id}` (a shop opened from the map).
 */
export function ProducerNeeds() {
  const { distributorId } = useParams<{ distributorId: string }>()
  const user = useUser()
  const partner = useDistributors().find((d) => d._id === distributorId)
  const card = useShopCard(distributorId)
  const name = partner?.name ?? card?.name
  const shopNeeds = useShopNeeds()
  const status = useLoading('shopNeeds')
  const viewer = useMemo(() => ({ type: 'producer' as const, id: user?._id ?? '' }), [user?._id])

  // The shop's needs of the months in view, read afresh at each visit
  // (issue 42); a link naming a need of another month reads that need
  // first, and the planner moves to its month.
  const [visit] = useState(newShopVisit)
  const onPeriod = useCallback(
    (first: Month, last: Month) => void loadShopNeeds(distributorId, visit, { from: first, to: last }),
    [distributorId, visit],
  )
  const linked = linkedNeedId(useSearch())
  useEffect(() => {
    if (linked) void loadShopNeed(distributorId, linked)
  }, [distributorId, linked])

  const known = !!partner
  useEffect(() => {
    if (!known) void loadShopCard(distributorId)
  }, [distributorId, known])

  const needs = shopNeeds.distributor === distributorId ? shopNeeds.needs : []
  return (
    <Stack gap={0}>
      {status === 'error' ? (
        <Alert color="red" role="alert" m="md" title={NEED_MESSAGES.loadFailed}>
          <Button
            variant="light"
            color="red"
            size="compact-sm"
            onClick={() => void loadShopNeeds(distributorId, visit)}
          >
            Réessayer
          </Button>
        </Alert>
      ) : null}
      <Planner
        title={name ?? 'Magasin'}
        subtitle="Besoins du magasin"
        needs={needs}
        viewer={viewer}
        onPeriod={onPeriod}
      />
    </Stack>
  )
}
