import { Alert } from '@mantine/core'
import { useEffect } from 'react'
import { claimPA, loadPA, usePA } from '../store/pa'

/**
 * The dashboard's warning to a producer not connected to an approved
 * platform (PRODUCT §16 "Electronic invoicing through an approved
 * platform"): from 1 June 2027, how many documents it issued outside a PA
 * and what to do. The daemon words it (`warning` of `GET /api/user/pa`).
 */
export function PAWarning({ owner }: { owner: string }) {
  const pa = usePA()
  useEffect(() => {
    claimPA(owner)
    void loadPA()
  }, [owner])
  const warning = pa.data?.warning
  if (!warning) return null
  return (
    <Alert color="orange" title="Facturation électronique" role="note">
      {warning}
    </Alert>
  )
}
