import { Alert, Button, Stack } from '@mantine/core'
import { useEffect, useMemo } from 'react'
import { useParams } from 'wouter'
import { Planner } from '../planner/Planner'
import { useDistributors, useLoading, useShopNeeds, useUser } from '../store/hooks'
import { NEED_MESSAGES, loadShopNeeds } from '../store/needs'

/**
 * A producer's view of one shop's needs (PRODUCT §2, route
 * /prod/needs/:distributorId): the same planner, read-only, without add bar,
 * on the shop's needs loaded apart from the producer's own.
 */
export function ProducerNeeds() {
  const { distributorId } = useParams<{ distributorId: string }>()
  const user = useUser()
  const shop = useDistributors().find((d) => d._id === distributorId)
  const shopNeeds = useShopNeeds()
  const status = useLoading('shopNeeds')
  const viewer = useMemo(() => ({ type: 'producer' as const, id: user?._id ?? '' }), [user?._id])

  useEffect(() => {
    void loadShopNeeds(distributorId)
  }, [distributorId])

  const needs = shopNeeds.distributor === distributorId ? shopNeeds.needs : []
  return (
    <Stack gap={0}>
      {status === 'error' ? (
        <Alert color="red" role="alert" m="md" title={NEED_MESSAGES.loadFailed}>
          <Button variant="light" color="red" size="compact-sm" onClick={() => void loadShopNeeds(distributorId)}>
            Réessayer
          </Button>
        </Alert>
      ) : null}
      <Planner title={shop ? shop.name : 'Magasin'} subtitle="Besoins du magasin" needs={needs} viewer={viewer} />
    </Stack>
  )
}
