package orders

import (
	"slices"
	"testing"
)

// TestWindows: each key gets its rows, in their order of arrival, whether
// they come in one run or several, the slabs full or not, a run longer
// than a slab; a key without rows gets an empty window (not nil: JSON
// []); a window is never overwritten by the rows of another.
func TestWindows(t *testing.T) {
	type row struct {
		key int32
		v   string
	}
	tests := []struct {
		name string
		keys int
		slab int
		rows []row
		want [][]string
	}{
		{"none", 2, 4, nil, [][]string{{}, {}}},
		{"grouped", 4, 4, []row{{0, "a1"}, {0, "a2"}, {2, "c1"}, {1, "b1"}, {1, "b2"}},
			[][]string{{"a1", "a2"}, {"b1", "b2"}, {"c1"}, {}}},
		{"runs", 3, 4, []row{{0, "a1"}, {1, "b1"}, {0, "a2"}, {2, "c1"}, {1, "b2"}, {0, "a3"}},
			[][]string{{"a1", "a2", "a3"}, {"b1", "b2"}, {"c1"}}},
		{"long run", 2, 2, []row{{1, "b1"}, {0, "a1"}, {0, "a2"}, {0, "a3"}, {0, "a4"}, {0, "a5"}},
			[][]string{{"a1", "a2", "a3", "a4", "a5"}, {"b1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWindows[string](tt.keys, tt.slab)
			for _, r := range tt.rows {
				w.add(r.key, r.v)
			}
			got := w.finish()
			for k := range tt.keys {
				if got[k] == nil || !slices.Equal(got[k], tt.want[k]) {
					t.Errorf("key %d: %#v, want %v", k, got[k], tt.want[k])
				}
			}
			// Appending to a window copies it: its neighbours stay.
			for k := range tt.keys {
				_ = append(got[k], "x")
			}
			for k := range tt.keys {
				if !slices.Equal(got[k], tt.want[k]) {
					t.Errorf("after appends, key %d: %v, want %v", k, got[k], tt.want[k])
				}
			}
		})
	}
}
