import { useCallback, useMemo } from 'react'
import { AddBar } from '../planner/AddBar'
import { currentMonth, type Month } from '../planner/period'
import { type CommitOutcome, Planner } from '../planner/Planner'
import { useNeeds, useProducts, useUser } from '../store/hooks'
import { commitCell, loadOwnNeedsFrom } from '../store/needs'

/** The shop's planner (PRODUCT §2 "Planifier", route /dis/needs): its own needs, editable, with the add bar. */
export function DistributorNeeds() {
  const user = useUser()
  const needs = useNeeds()
  const products = useProducts()
  const viewer = useMemo(() => ({ type: 'distributor' as const, id: user?._id ?? '' }), [user?._id])
  const onCommit = useCallback(
    (product: string, month: Month, text: string): Promise<CommitOutcome> => {
      const unit = products.find((p) => p._id === product)?.unit ?? 'kg'
      return commitCell(product, unit, month, text, currentMonth())
    },
    [products],
  )
  const onPeriod = useCallback((first: Month) => void loadOwnNeedsFrom(first), [])
  return (
    <Planner
      title="Planifier mes besoins"
      needs={needs}
      viewer={viewer}
      onCommit={onCommit}
      addBar={<AddBar />}
      onPeriod={onPeriod}
    />
  )
}
