import { Alert, Stack, Text } from '@mantine/core'
import { useProducts } from '../store/hooks'
import type { ImportError } from '../store/imports'
import { ImportFailures } from './ImportFailures'
import { sheetText } from './previewText'
import { missingText, successText } from './summary'

/**
 * What an import did (PRODUCT §2 "Import result messages"): how many needs it
 * imported (and from which sheet, for a file), the needs left as they were
 * — because producers committed more, or because their month is past — and
 * the products missing from the product list (first three, then "...").
 */
export function ImportResultView({
  count,
  failures,
  missing = [],
  sheet = null,
}: {
  count: number
  failures: readonly ImportError[]
  missing?: readonly string[]
  /** The sheet the file import read; null for a .csv and the standard import. */
  sheet?: string | null
}) {
  const products = useProducts()
  const unitOf = (id: string) => products.find((p) => p._id === id)?.unit
  return (
    <Stack gap="xs" aria-label="Résultat de l'import">
      <Alert color="green" role="status">
        {sheet ? (
          <>
            <Text size="sm">{successText(count)}</Text>
            <Text size="sm">{sheetText(sheet)}</Text>
          </>
        ) : (
          successText(count)
        )}
      </Alert>
      <ImportFailures failures={failures} unitOf={unitOf} />
      {missing.length > 0 ? (
        <Alert color="yellow" title="Produits absents de la liste des produits">
          <Text size="sm">{missingText(missing)}</Text>
        </Alert>
      ) : null}
    </Stack>
  )
}
