import { Alert, List } from '@mantine/core'
import type { ImportError } from '../store/imports'
import type { Unit } from '../types'
import { failuresHeading, failureText, pastHeading, pastText, splitFailures } from './summary'

interface ImportFailuresProps {
  failures: readonly ImportError[]
  unitOf: (productId: string) => Unit | undefined
}

/**
 * The needs an import leaves (or would leave) as they were, under the
 * heading of their reason (PRODUCT §2 "Import result messages"): those
 * under producers' commitments and proposals, and those of past months —
 * a file of past months never reads as one held back by producers.
 */
export function ImportFailures({ failures, unitOf }: ImportFailuresProps) {
  const { reserved, past } = splitFailures(failures)
  return (
    <>
      {reserved.length > 0 ? (
        <Alert color="orange" title={failuresHeading(reserved.length)}>
          <List size="sm" spacing={2}>
            {reserved.map((e) => (
              <List.Item key={`${e.productId}|${e.date}`}>{failureText(e, unitOf(e.productId))}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {past.length > 0 ? (
        <Alert color="gray" title={pastHeading(past.length)}>
          <List size="sm" spacing={2}>
            {past.map((e) => (
              <List.Item key={`${e.productId}|${e.date}`}>{pastText(e, unitOf(e.productId))}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
    </>
  )
}
