import { useCallback, useEffect, useMemo } from 'react'
import { AddBar } from '../planner/AddBar'
import { currentMonth, type Month } from '../planner/period'
import { type CommitOutcome, Planner } from '../planner/Planner'
import { useNeeds, useProducts, useUser } from '../store/hooks'
import { ensureList } from '../store/lists'
import { commitCell, loadOwnNeedsFrom } from '../store/needs'
import { may } from '../team/roles'

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
  // The needs of 12 months back on, read by the screen (issue 42); older
  // months as the planner moves there.
  useEffect(() => {
    void ensureList('needs')
  }, [])
  const onPeriod = useCallback((first: Month) => void loadOwnNeedsFrom(first), [])
  return (
    <Planner
      title="Planifier mes besoins"
      needs={needs}
      viewer={viewer}
      // A role that may not change needs reads them (PRODUCT §13 "Teams").
      onCommit={may(user?.role, 'update-need') ? onCommit : undefined}
      addBar={may(user?.role, 'create-need') ? <AddBar /> : undefined}
      onPeriod={onPeriod}
    />
  )
}
