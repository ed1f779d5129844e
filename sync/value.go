package psync

import (
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"
)

// Field values are JSON values as encoding/json decodes them into `any`: nil, bool, float64 (or
// json.Number, or a Go integer), string, []any and map[string]any. The merge compares them by
// value, never by identity, with one total order shared with clientdb/src/merge.ts:
//
//	null < false < true < numbers (numerically) < strings (by code point) < arrays < objects
//
// Arrays compare element by element, then by length; objects compare their entries sorted by key
// (key first, then value), then by number of entries.

const (
	rankNull = iota
	rankBool
	rankNumber
	rankString
	rankArray
	rankObject
	rankInvalid
)

func valueRank(v any) int {
	switch x := v.(type) {
	case nil:
		return rankNull
	case bool:
		return rankBool
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return rankInvalid
		}
		return rankNumber
	case json.Number:
		if _, err := x.Float64(); err != nil {
			return rankInvalid
		}
		return rankNumber
	case float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return rankNumber
	case string:
		return rankString
	case []any:
		return rankArray
	case map[string]any:
		return rankObject
	}
	return rankInvalid
}

func numberOf(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case json.Number:
		f, _ := x.Float64()
		return f
	case float32:
		return float64(x)
	case int:
		return float64(x)
	case int8:
		return float64(x)
	case int16:
		return float64(x)
	case int32:
		return float64(x)
	case int64:
		return float64(x)
	case uint:
		return float64(x)
	case uint8:
		return float64(x)
	case uint16:
		return float64(x)
	case uint32:
		return float64(x)
	case uint64:
		return float64(x)
	}
	return 0
}

// validValue reports whether v is a JSON value the merge can store and compare.
func validValue(v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if !validValue(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range x {
			if !validValue(e) {
				return false
			}
		}
		return true
	}
	return valueRank(v) != rankInvalid
}

// CompareValues orders two JSON values (see the order above). It returns -1, 0 or +1.
func CompareValues(a, b any) int {
	ra, rb := valueRank(a), valueRank(b)
	if ra != rb {
		return cmpInt(ra, rb)
	}
	switch ra {
	case rankBool:
		ba, bb := a.(bool), b.(bool)
		switch {
		case ba == bb:
			return 0
		case !ba:
			return -1
		}
		return 1
	case rankNumber:
		na, nb := numberOf(a), numberOf(b)
		switch {
		case na < nb:
			return -1
		case na > nb:
			return 1
		}
		return 0
	case rankString:
		// Byte order of UTF-8 is code point order.
		return strings.Compare(a.(string), b.(string))
	case rankArray:
		xa, xb := a.([]any), b.([]any)
		for i := 0; i < len(xa) && i < len(xb); i++ {
			if c := CompareValues(xa[i], xb[i]); c != 0 {
				return c
			}
		}
		return cmpInt(len(xa), len(xb))
	case rankObject:
		oa, ob := a.(map[string]any), b.(map[string]any)
		ka, kb := sortedKeys(oa), sortedKeys(ob)
		for i := 0; i < len(ka) && i < len(kb); i++ {
			if c := strings.Compare(ka[i], kb[i]); c != 0 {
				return c
			}
			if c := CompareValues(oa[ka[i]], ob[kb[i]]); c != 0 {
				return c
			}
		}
		return cmpInt(len(ka), len(kb))
	}
	return 0
}

// EqualValues reports whether two JSON values are equal (CompareValues == 0).
func EqualValues(a, b any) bool { return CompareValues(a, b) == 0 }

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// sortedKeysInto is sortedKeys into buf's storage: with an array on the caller's stack, the keys
// of a small map (a record's fields, clocks, authors) are sorted without allocating.
func sortedKeysInto[V any](buf []string, m map[string]V) []string {
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
