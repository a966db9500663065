import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Container,
  Grid,
  Group,
  Loader,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core'
import { useEffect, useMemo, useState } from 'react'
import { usePhone } from '../components/usePhone'
import { formatLongDay } from '../format'
import { useUser } from '../store/hooks'
import { claimSupply, loadSupply, selectCell, useSupply } from '../store/supply'
import { LABELS, SUPPLY_TITLE, noDeliveriesMessage, riskColor, riskLabel } from './format'
import { productDay } from './detailDay'
import { SupplyDetail } from './SupplyDetail'
import { SupplyDetailSheet } from './SupplyDetailSheet'
import { SupplyGrid } from './SupplyGrid'
import { AT_RISK_NONE, AT_RISK_ONLY, atRiskCount, visibleProducts } from './order'
import { currentWeekStart, screenIsHighDensity, shiftStart, stepSize, windowLength } from './window'

/**
 * Stock evolution and supply advice (PRODUCT §2, route /dis/supply): the grid
 * of products by day from the Monday of the current week, arrows to move
 * the window, a reset to the current week, and the side detail of the
 * selected cell. The products at risk come first, by need (order.ts), and
 * "À risque seulement" keeps only them. On a phone the detail is a sheet
 * over the grid, opened by a tap on a day or on a product's name.
 */
export function SupplyScreen() {
  const user = useUser()
  const supply = useSupply()
  const highDensity = useMemo(screenIsHighDensity, [])
  const days = windowLength(highDensity)
  const step = stepSize(highDensity)
  const userId = user?._id

  useEffect(() => {
    if (!userId) return
    claimSupply(userId)
    void loadSupply(currentWeekStart(), days)
  }, [userId, days])

  const data = supply.data
  const start = supply.start ?? data?.start ?? null
  const move = (direction: -1 | 1) => {
    if (start) void loadSupply(shiftStart(start, direction, step), days)
  }
  const selectedProduct = supply.selected
    ? data?.products.find((p) => p.product === supply.selected?.product)
    : undefined
  const selectedDay = selectedProduct?.days.find((d) => d.date === supply.selected?.date)
  const [atRiskOnly, setAtRiskOnly] = useState(false)
  const rows = useMemo(() => (data ? visibleProducts(data.products, atRiskOnly) : []), [data, atRiskOnly])

  // On a phone the detail is a sheet, opened by a tap (or Enter) on a day
  // or a product's name, closed by its button, Escape or a tap outside.
  const phone = usePhone()
  const [sheet, setSheet] = useState(false)
  const select = (product: string, date: string) => {
    selectCell(product, date)
    if (phone) setSheet(true)
  }
  const openProduct = (product: string) => {
    const date = data ? productDay(data, product, supply.selected) : null
    if (date) select(product, date)
  }

  return (
    <Container size="xl" py="md">
      <Stack gap="md">
        <Title order={1} size="h2">
          {SUPPLY_TITLE}
        </Title>
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={`Reculer de ${step} jour${step > 1 ? 's' : ''}`}
              onClick={() => move(-1)}
              disabled={!start}
            >
              ←
            </ActionIcon>
            <ActionIcon
              variant="default"
              size="lg"
              aria-label={`Avancer de ${step} jour${step > 1 ? 's' : ''}`}
              onClick={() => move(1)}
              disabled={!start}
            >
              →
            </ActionIcon>
            <Button variant="light" onClick={() => void loadSupply(currentWeekStart(), days)}>
              Semaine en cours
            </Button>
            {supply.status === 'busy' ? <Loader size="sm" aria-label="Chargement en cours" /> : null}
          </Group>
          {data ? (
            <Text c="dimmed" data-testid="supply-period">
              Du {formatLongDay(data.start)} au {formatLongDay(data.end)}
            </Text>
          ) : null}
        </Group>
        {supply.status === 'error' ? (
          <Alert color="red" title="Échec du chargement">
            {supply.error}
          </Alert>
        ) : null}
        {!data ? (
          supply.status === 'busy' ? (
            <Group justify="center" py="xl">
              <Loader />
              <Text c="dimmed">Chargement en cours</Text>
            </Group>
          ) : null
        ) : (
          <Grid gap="md">
            <Grid.Col span={{ base: 12, md: phone ? 12 : 8 }}>
              <Stack gap="sm">
                {!data.hasDeliveries ? (
                  <Alert color="blue" data-testid="no-deliveries">
                    {noDeliveriesMessage(data.start, data.end)}
                  </Alert>
                ) : null}
                {data.products.length === 0 ? (
                  <Text c="dimmed">{LABELS.empty}</Text>
                ) : (
                  <>
                    <Group gap="md" wrap="wrap">
                      <Switch
                        label={AT_RISK_ONLY}
                        checked={atRiskOnly}
                        onChange={(e) => setAtRiskOnly(e.currentTarget.checked)}
                        aria-describedby="supply-risk-count"
                      />
                      <Text size="sm" id="supply-risk-count" aria-live="polite">
                        {atRiskCount(data.products)}
                      </Text>
                    </Group>
                    {rows.length === 0 ? (
                      <Text>{AT_RISK_NONE}</Text>
                    ) : (
                      <SupplyGrid
                        projection={data}
                        products={rows}
                        selected={supply.selected}
                        onSelect={select}
                        onOpenProduct={phone ? openProduct : undefined}
                      />
                    )}
                  </>
                )}
                <Group gap="xs" aria-label="Légende">
                  {([0, 1, 2] as const).map((r) => (
                    <Badge key={r} color={riskColor(r)} variant="light">
                      {riskLabel(r)}
                    </Badge>
                  ))}
                  <Text size="xs" c="dimmed">
                    Graphique : stock du matin avec les livraisons prévues (vert) et sans elles (gris).
                  </Text>
                </Group>
              </Stack>
            </Grid.Col>
            {phone ? null : (
              <Grid.Col span={{ base: 12, md: 4 }}>
                <Paper withBorder p="md" pos="sticky" top={8}>
                  {selectedProduct && selectedDay ? (
                    <SupplyDetail projection={data} product={selectedProduct} day={selectedDay} />
                  ) : (
                    <Text c="dimmed" data-testid="supply-prompt">
                      {LABELS.prompt}
                    </Text>
                  )}
                </Paper>
              </Grid.Col>
            )}
          </Grid>
        )}
        {phone && data && selectedProduct && selectedDay ? (
          <SupplyDetailSheet
            opened={sheet}
            onClose={() => setSheet(false)}
            projection={data}
            product={selectedProduct}
            day={selectedDay}
            onDay={(date) => selectCell(selectedProduct.product, date)}
          />
        ) : null}
      </Stack>
    </Container>
  )
}
