import { Alert, Button, Group, List, Stack, Table, Text } from '@mantine/core'
import type { Snapshot } from 'valtio'
import { formatMonthYear, formatNumber } from '../format'
import { useProducts } from '../store/hooks'
import type { ImportResult } from '../store/imports'
import { failuresHeading, failureText } from './summary'
import { previewCounts, previewHeading } from './previewText'

interface ImportPreviewProps {
  preview: Snapshot<ImportResult>
  busy: boolean
  onConfirm: () => void
  onCancel: () => void
}

/**
 * What an Excel import would write, before the shop confirms (PRODUCT §2
 * "Add bar and imports"): each need created or changed (from → to), the
 * cells refused and why, the products missing with the closest catalogue
 * name, the values rounded to the hundredth; then "Confirmer l'import" or
 * "Annuler".
 */
export function ImportPreview({ preview, busy, onConfirm, onCancel }: ImportPreviewProps) {
  const products = useProducts()
  const unitOf = (id: string) => products.find((p) => p._id === id)?.unit
  const changes = preview.changes ?? []
  const { created, changed } = previewCounts(changes)
  const suggestion = new Map((preview.suggestions ?? []).map((s) => [s.name, s.product]))
  return (
    <Stack gap="xs" aria-label="Aperçu de l'import">
      <Alert color="blue" role="status" title={previewHeading(created, changed)}>
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
      {preview.dbErrors.length > 0 ? (
        <Alert color="orange" title={failuresHeading(preview.dbErrors.length)}>
          <List size="sm" spacing={2}>
            {preview.dbErrors.map((e) => (
              <List.Item key={`${e.productId}|${e.date}`}>{failureText(e, unitOf(e.productId))}</List.Item>
            ))}
          </List>
        </Alert>
      ) : null}
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
