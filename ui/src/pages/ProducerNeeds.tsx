import { Text } from '@mantine/core'
import { useParams } from 'wouter'
import { PlaceholderPage } from '../components/PlaceholderPage'
import { useDistributors } from '../store/hooks'

/**
 * TO BE BUILT: planner of one shop's needs for a producer (SPEC §2 "Needs
 * planner"), route /prod/needs/:distributorId.
 */
export function ProducerNeeds() {
  const { distributorId } = useParams<{ distributorId: string }>()
  const shop = useDistributors().find((d) => d._id === distributorId)
  return (
    <PlaceholderPage title="Besoins du magasin">
      <Text>{shop ? shop.name : distributorId}</Text>
    </PlaceholderPage>
  )
}
