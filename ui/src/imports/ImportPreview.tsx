import { Alert, Button, Group, List, Stack, Table, Text } from '@mantine/core'
import type { Snapshot } from 'valtio'
import { formatMonthYear, formatNumber } from '../format'
import { useProducts } from '../store/hooks'
import type { ImportResult } from '../store/imports'
import { ImportFailures } from './ImportFailures'
import { previewCounts, previewHeading, sheetText, unchangedText } from './previewText'

interface ImportPreviewProps {
  preview: Snapshot<ImportResult>
  /** The sheet read, named to the shop; null for a .csv. */
  sheet: string | null
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}

/**
 * What a file import would write, before the shop confirms (PRODUCT §2
 * "Add bar and imports"): the sheet read, each need created or changed
 * (from → to), the cells refused and why, the products missing with the
 * closest catalogue name, the values rounded to the hundredth; then
 * "Confirmer l'import" or "Annuler".
 */
export function ImportPreview({ preview, sheet, busy, onConfirm, onCancel }: ImportPreviewProps) {
  const products = useProducts()
  const unitOf = (id: string) => products.find((p) => p._id === id)?.unit
  const changes = preview.changes ?? []
  const { created, changed } = previewCounts(changes)
  const suggestion = new Map((preview.suggestions ?? []).map((s) => [s.name, s.product]))
  const unchanged = changes.length === 0 ? unchangedText(preview) : null
  return (
    <Stack gap="xs" aria-label="Aperçu de l'import">
      <Alert color="blue" role="status" title={previewHeading(created, changed)}>
        {sheet ? <Text size="sm">{sheetText(sheet)}</Text> : null}
        {unchanged ? <Text size="sm">{unchanged}</Text> : null}
        <Text size="sm">Rien n'est encore enregistré : vérifiez, puis confirmez l'import.</Text>
      </Alert>
      {changes.length > 0 ? (
        <Table.ScrollContainer minWidth={420}>
          <Table striped withTableBorder aria-label="Besoins à enregistrer">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Produit</Table.Th>
                <Table.Th>Mois</Table.Th>
                <Table.Th>Cellule</Table.Th>
                <Table.Th>Avant</Table.Th>
                <Table.Th>Après</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((c) => (
                <Table.Tr key={`${c.productId}|${c.date}`}>
                  <Table.Td>{c.product}</Table.Td>
                  <Table.Td>{formatMonthYear(c.date)}</Table.Td>
                  <Table.Td>{c.cell}</Table.Td>
                  <Table.Td>{c.from === null ? 'nouveau' : formatNumber(c.from)}</Table.Td>
                  <Table.Td>
                    {formatNumber(c.to)} {unitOf(c.productId) ?? ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <ImportFailures failures={preview.dbErrors} unitOf={unitOf} />
      {preview.productsMissing.length > 0 ? (
        <Alert color="yellow" title="Produits absents de la liste des produits (non importés)">
          <List size="sm" spacing={2}>
            {preview.productsMissing.map((name) => (
              <List.Item key={name}>
                {suggestion.has(name) ? `${name} : vouliez-vous dire ${suggestion.get(name)} ?` : name}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      {(preview.rounded ?? []).length > 0 ? (
        <Alert color="gray" title="Valeurs arrondies au centième">
          <List size="sm" spacing={2}>
            {(preview.rounded ?? []).map((r) => (
              <List.Item key={r.cell}>
                {`${r.read} lu en ${r.cell} (${r.product}), importé ${formatNumber(r.quantity)} kg`}
              </List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} disabled={busy}>
          Annuler
        </Button>
        <Button onClick={onConfirm} disabled={busy || changes.length === 0}>
          {busy ? 'en cours...' : "Confirmer l'import"}
        </Button>
      </Group>
    </Stack>
  )
}
