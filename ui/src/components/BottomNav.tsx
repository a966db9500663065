import { Button, Group, Paper } from '@mantine/core'
import { useDisclosure } from '@mantine/hooks'
import { Link, useLocation } from 'wouter'
import { isNavItemActive, navItems } from '../routing'
import { useUserType } from '../store/hooks'
import { ActivityModal } from './ActivityModal'

/** Bottom navigation per role, current section highlighted, plus Activités (PRODUCT §2, §6). */
export function BottomNav() {
  const type = useUserType()
  const [location] = useLocation()
  const [opened, { open, close }] = useDisclosure(false)
  if (!type) return null
  return (
    <Paper
      component="nav"
      aria-label="Navigation principale"
      pos="fixed"
      bottom={0}
      left={0}
      right={0}
      withBorder
      p="xs"
      radius={0}
      style={{ zIndex: 100 }}
    >
      <Group justify="center" gap="xs" wrap="nowrap">
        {navItems(type).map((item) => {
          const active = isNavItemActive(item, location)
          return (
            <Button
              key={item.label}
              component={Link}
              href={item.href}
              variant={active ? 'filled' : 'subtle'}
              aria-current={active ? 'page' : undefined}
              size="compact-md"
            >
              {item.label}
            </Button>
          )
        })}
        <Button variant="subtle" size="compact-md" onClick={open}>
          Activités
        </Button>
      </Group>
      <ActivityModal opened={opened} onClose={close} />
    </Paper>
  )
}
