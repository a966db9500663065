import { Group, Paper, UnstyledButton } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import {
  IconBell,
  IconBuildingStore,
  IconCalendarEvent,
  IconCash,
  IconChartLine,
  IconHome,
  IconTruckDelivery,
  type Icon,
} from '@tabler/icons-react'
import type { CSSProperties } from 'react'
import { Link, useLocation } from 'wouter'
import { isNavItemActive, type NavItem, navItems, type Section } from '../routing'
import { useUserType } from '../store/hooks'
import { ActivityModal } from './ActivityModal'
import { NavItemContent } from './NavItemContent'

/** The icon of each section's item; the producer's "Vendre" is a shop. */
function iconOf(item: NavItem, producer: boolean): Icon {
  const icons: Record<Section, Icon> = {
    home: IconHome,
    needs: producer ? IconBuildingStore : IconCalendarEvent,
    supply: IconChartLine,
    deliveries: IconTruckDelivery,
    payments: IconCash,
  }
  return icons[item.section]
}

/** An item's box: a share of the width, at least a 44 px touch target. */
function itemStyle(active: boolean): CSSProperties {
  return {
    flex: '1 1 0',
    minWidth: 0,
    minHeight: 48,
    padding: '4px 2px',
    borderRadius: 'var(--mantine-radius-md)',
    color: active ? 'var(--mantine-color-white)' : 'var(--mantine-color-text)',
    background: active ? 'var(--mantine-primary-color-filled)' : 'transparent',
  }
}

/**
 * Bottom navigation per role, current section highlighted, plus Activités
 * (PRODUCT §2, §6): an icon over each label of PRODUCT §2 "Bottom
 * navigation", the items sharing the width, so that "Planifier", "Réasso."
 * or "Encaisser" are never cut on a 390 px phone.
 */
export function BottomNav() {
  const type = useUserType()
  const [location] = useLocation()
  const [opened, { open, close }] = useDisclosure(false)
  if (!type) return null
  const producer = type === 'producer'
  return (
    <Paper
      component="nav"
      aria-label="Navigation principale"
      pos="fixed"
      bottom={0}
      left={0}
      right={0}
      withBorder
      px={4}
      py={4}
      radius={0}
      style={{ zIndex: 100 }}
    >
      <Group gap={4} wrap="nowrap" justify="center" maw={640} mx="auto">
        {navItems(type).map((item) => {
          const active = isNavItemActive(item, location)
          return (
            <UnstyledButton
              key={item.label}
              component={Link}
              href={item.href}
              aria-current={active ? 'page' : undefined}
              style={itemStyle(active)}
            >
              <NavItemContent icon={iconOf(item, producer)} label={item.label} />
            </UnstyledButton>
          )
        })}
        <UnstyledButton onClick={open} aria-haspopup="dialog" style={itemStyle(false)}>
          <NavItemContent icon={IconBell} label="Activités" />
        </UnstyledButton>
      </Group>
      <ActivityModal opened={opened} onClose={close} />
    </Paper>
  )
}
