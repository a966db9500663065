import { Alert, List, Stack, Text } from '@mantine/core'
import { useProducts } from '../store/hooks'
import type { ImportError } from '../store/imports'
import { failuresHeading, failureText, missingText, successText } from './summary'

/**
 * What an import did (PRODUCT §2 "Import result messages"): how many needs it
 * imported, the needs left as they were because producers committed more,
 * and the products missing from the product list (first three, then "...").
 */
export function ImportResultView({
  count,
  failures,
  missing = [],
}: {
  count: number
  failures: readonly ImportError[]
  missing?: readonly string[]
}) {
  const products = useProducts()
  const unitOf = (id: string) => products.find((p) => p._id === id)?.unit
  return (
    <Stack gap="xs" aria-label="Résultat de l'import">
      <Alert color="green" role="status">
        {successText(count)}
      </Alert>
      {failures.length > 0 ? (
        <Alert color="orange" title={failuresHeading(failures.length)}>
          <List size="sm" spacing={2}>
            {failures.map((e) => (
              <List.Item key={`${e.productId}|${e.date}`}>{failureText(e, unitOf(e.productId))}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {missing.length > 0 ? (
        <Alert color="yellow" title="Produits absents de la liste des produits">
          <Text size="sm">{missingText(missing)}</Text>
        </Alert>
      ) : null}
    </Stack>
  )
}
