package orders

import (
	"slices"
	"testing"
)

// TestGroup: items already grouped stay in place, whatever the order of
// their groups; others are regrouped keeping their order within a group;
// empty groups get empty windows.
func TestGroup(t *testing.T) {
	tests := []struct {
		name  string
		items []string
		keys  []int32
		n     int
		want  [][]string // per group
		moved bool
	}{
		{"empty", []string{}, []int32{}, 3, [][]string{{}, {}, {}}, false},
		{"grouped", []string{"a1", "a2", "c1", "b1", "b2"}, []int32{0, 0, 2, 1, 1}, 4, [][]string{{"a1", "a2"}, {"b1", "b2"}, {"c1"}, {}}, false},
		{"split", []string{"a1", "b1", "a2", "c1", "b2"}, []int32{0, 1, 0, 2, 1}, 3, [][]string{{"a1", "a2"}, {"b1", "b2"}, {"c1"}}, true},
		{"last run again", []string{"b1", "a1", "b2"}, []int32{1, 0, 1}, 2, [][]string{{"a1"}, {"b1", "b2"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.items)
			out, start, end := group(in, tt.keys, tt.n)
			if moved := len(out) > 0 && &out[0] != &in[0]; moved != tt.moved {
				t.Errorf("moved = %v, want %v", moved, tt.moved)
			}
			if out == nil {
				t.Fatal("nil items")
			}
			for k := range tt.n {
				if got := out[start[k]:end[k]]; !slices.Equal(got, tt.want[k]) {
					t.Errorf("group %d = %v, want %v", k, got, tt.want[k])
				}
			}
		})
	}
}
