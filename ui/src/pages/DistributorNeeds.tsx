import { useCallback, useEffect, useMemo } from 'react'
import { useSearch } from 'wouter'
import { AddBar } from '../planner/AddBar'
import { linkedNeedId } from '../planner/deepLink'
import { currentMonth, type Month } from '../planner/period'
import { type CommitOutcome, Planner } from '../planner/Planner'
import { useNeeds, useProducts, useUser } from '../store/hooks'
import { ensureMonths } from '../store/lists'
import { commitCell, loadNeed } from '../store/needs'
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
  // The needs of the months in view, read by the screen as the period
  // moves (issue 42); a link naming a need of another month reads that
  // need first, and the planner moves to its month.
  const onPeriod = useCallback((first: Month, last: Month) => void ensureMonths('needs', { from: first, to: last }), [])
  const linked = linkedNeedId(useSearch())
  useEffect(() => {
    if (linked) void loadNeed(linked)
  }, [linked])
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
