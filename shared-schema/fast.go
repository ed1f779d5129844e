package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The fast check: a yes/no validity test compiled once per schema from the JSON Schema library's
// own compiled form (the same parsed keywords, regular expressions and format functions), that
// allocates nothing and builds no error tree. check() runs it first; only a document it does not
// accept goes through the library's validator, which then gives the verdict and the issues. So the
// one property that matters is one-sided: the fast check accepts only what the library accepts.
// It is also meant to accept everything the library accepts (else valid documents pay twice);
// fast_test.go checks both on the shared vectors and on documents mutated from them.
//
// A schema using a keyword the fast check does not implement gets no fast check (nil): the library
// decides alone, as before. The keywords implemented are those the generated schemas use.

// fastNode is one compiled schema.
type fastNode struct {
	boolean *bool // a boolean schema: true accepts everything, false nothing

	types     fastTypes // 0: any type
	constVal  *any
	enumStr   map[string]struct{} // an enum of strings only
	enumVals  []any               // another enum
	hasEnum   bool
	format    func(any) error
	anyOf     []*fastNode
	minLength int // -1: none
	maxLength int
	pattern   matcher

	minimum, maximum       *big.Rat
	minimumInt, maximumInt int64 // the same bounds when they are int64 integers
	minIsInt, maxIsInt     bool

	minProps, maxProps int
	required           []string
	props              map[string]*fastNode
	patternProps       []fastPatternProp
	additional         int // additionalNone, additionalFalse or additionalSchema
	additionalNode     *fastNode

	minItems, maxItems int
	items              *fastNode
}

type fastPatternProp struct {
	match matcher
	node  *fastNode
}

// matcher is what a pattern does: Go's regexp semantics (unanchored search; the schemas anchor).
type matcher interface{ MatchString(string) bool }

const (
	additionalNone = iota
	additionalFalse
	additionalSchema
)

type fastTypes uint8

const (
	ftNull fastTypes = 1 << iota
	ftBoolean
	ftNumber
	ftInteger
	ftString
	ftArray
	ftObject
	ftInvalid
)

// fastTypeOf mirrors the library's typeOf: the Go values a decoded JSON document can hold.
func fastTypeOf(v any) fastTypes {
	switch x := v.(type) {
	case nil:
		return ftNull
	case bool:
		return ftBoolean
	case string:
		return ftString
	case map[string]any:
		return ftObject
	case []any:
		return ftArray
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return ftNumber
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return ftInvalid
		}
		return ftNumber
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return ftInvalid
		}
		return ftNumber
	}
	return ftInvalid
}

// compileFast compiles s, or returns nil when s (or a schema inside it) uses a keyword the fast
// check does not implement.
func compileFast(s *jsonschema.Schema, regexps func(string) matcher) *fastNode {
	c := fastCompiler{memo: map[*jsonschema.Schema]*fastNode{}, regexps: regexps}
	return c.compile(s)
}

type fastCompiler struct {
	memo    map[*jsonschema.Schema]*fastNode
	regexps func(string) matcher
}

func (c *fastCompiler) compile(s *jsonschema.Schema) *fastNode {
	if s == nil {
		return nil
	}
	if n, ok := c.memo[s]; ok {
		return n // nil while in progress: a cycle (only $ref makes one, and $ref is not supported)
	}
	c.memo[s] = nil
	n := c.build(s)
	c.memo[s] = n
	return n
}

func (c *fastCompiler) build(s *jsonschema.Schema) *fastNode {
	if s.Bool != nil {
		return &fastNode{boolean: s.Bool}
	}
	unsupported := s.DraftVersion < 2020 || s.Ref != nil || s.RecursiveRef != nil || s.DynamicRef != nil ||
		s.Not != nil || len(s.AllOf) > 0 || len(s.OneOf) > 0 || s.If != nil || s.Then != nil || s.Else != nil ||
		s.PropertyNames != nil || len(s.Dependencies) > 0 || len(s.DependentRequired) > 0 || len(s.DependentSchemas) > 0 ||
		s.UnevaluatedProperties != nil || s.MinContains != nil || s.MaxContains != nil || s.Contains != nil ||
		s.UniqueItems || s.Items != nil || s.AdditionalItems != nil || len(s.PrefixItems) > 0 || s.UnevaluatedItems != nil ||
		s.ContentEncoding != nil || s.ContentMediaType != nil || s.ContentSchema != nil ||
		s.ExclusiveMaximum != nil || s.ExclusiveMinimum != nil || s.MultipleOf != nil || len(s.Extensions) > 0 ||
		(s.Format != nil && s.Format.Name == "regex")
	if unsupported {
		return nil
	}
	n := &fastNode{minLength: -1, maxLength: -1, minProps: -1, maxProps: -1, minItems: -1, maxItems: -1}
	if s.Types != nil {
		for _, t := range s.Types.ToStrings() {
			switch t {
			case "null":
				n.types |= ftNull
			case "boolean":
				n.types |= ftBoolean
			case "number":
				n.types |= ftNumber
			case "integer":
				n.types |= ftInteger
			case "string":
				n.types |= ftString
			case "array":
				n.types |= ftArray
			case "object":
				n.types |= ftObject
			default:
				return nil
			}
		}
	}
	n.constVal = s.Const
	if s.Enum != nil {
		n.hasEnum = true
		strs := map[string]struct{}{}
		for _, v := range s.Enum.Values {
			str, ok := v.(string)
			if !ok {
				strs = nil
				break
			}
			strs[str] = struct{}{}
		}
		if strs != nil {
			n.enumStr = strs
		} else {
			n.enumVals = s.Enum.Values
		}
	}
	if s.Format != nil {
		n.format = s.Format.Validate
	}
	for _, sub := range s.AnyOf {
		fn := c.compile(sub)
		if fn == nil {
			return nil
		}
		n.anyOf = append(n.anyOf, fn)
	}
	if s.MinLength != nil {
		n.minLength = *s.MinLength
	}
	if s.MaxLength != nil {
		n.maxLength = *s.MaxLength
	}
	if s.Pattern != nil {
		n.pattern = c.regexps(s.Pattern.String())
		if n.pattern == nil {
			n.pattern = s.Pattern
		}
	}
	n.minimum, n.maximum = s.Minimum, s.Maximum
	if n.minimum != nil && n.minimum.IsInt() && n.minimum.Num().IsInt64() {
		n.minimumInt, n.minIsInt = n.minimum.Num().Int64(), true
	}
	if n.maximum != nil && n.maximum.IsInt() && n.maximum.Num().IsInt64() {
		n.maximumInt, n.maxIsInt = n.maximum.Num().Int64(), true
	}
	if s.MinProperties != nil {
		n.minProps = *s.MinProperties
	}
	if s.MaxProperties != nil {
		n.maxProps = *s.MaxProperties
	}
	n.required = s.Required
	if len(s.Properties) > 0 {
		n.props = make(map[string]*fastNode, len(s.Properties))
		for name, sub := range s.Properties {
			fn := c.compile(sub)
			if fn == nil {
				return nil
			}
			n.props[name] = fn
		}
	}
	for re, sub := range s.PatternProperties {
		fn := c.compile(sub)
		if fn == nil {
			return nil
		}
		m := c.regexps(re.String())
		if m == nil {
			m = re
		}
		n.patternProps = append(n.patternProps, fastPatternProp{match: m, node: fn})
	}
	switch a := s.AdditionalProperties.(type) {
	case nil:
	case bool:
		if !a {
			n.additional = additionalFalse
		}
	case *jsonschema.Schema:
		n.additional, n.additionalNode = additionalSchema, c.compile(a)
		if n.additionalNode == nil {
			return nil
		}
	default:
		return nil
	}
	if s.MinItems != nil {
		n.minItems = *s.MinItems
	}
	if s.MaxItems != nil {
		n.maxItems = *s.MaxItems
	}
	if s.Items2020 != nil {
		if n.items = c.compile(s.Items2020); n.items == nil {
			return nil
		}
	}
	return n
}

// valid reports whether the library would accept v (false also when unsure).
func (n *fastNode) valid(v any) bool {
	if n.boolean != nil {
		return *n.boolean
	}
	t := fastTypeOf(v)
	if t == ftInvalid {
		return false
	}
	if n.types != 0 && n.types&t == 0 {
		if !(n.types&ftInteger != 0 && t == ftNumber && isIntegerValue(v)) {
			return false
		}
	}
	if n.constVal != nil && !fastEquals(v, *n.constVal) {
		return false
	}
	if n.hasEnum {
		if n.enumStr != nil {
			s, ok := v.(string)
			if !ok {
				return false
			}
			if _, ok := n.enumStr[s]; !ok {
				return false
			}
		} else {
			found := false
			for _, e := range n.enumVals {
				if fastEquals(v, e) {
					found = true
					break
				}
			}
			if !found {
				return false
			}
		}
	}
	if n.format != nil && n.format(v) != nil {
		return false
	}
	switch x := v.(type) {
	case map[string]any:
		if !n.validObject(x) {
			return false
		}
	case []any:
		if n.minItems >= 0 && len(x) < n.minItems || n.maxItems >= 0 && len(x) > n.maxItems {
			return false
		}
		if n.items != nil {
			for _, item := range x {
				if !n.items.valid(item) {
					return false
				}
			}
		}
	case string:
		if n.minLength >= 0 || n.maxLength >= 0 {
			l := utf8.RuneCountInString(x)
			if n.minLength >= 0 && l < n.minLength || n.maxLength >= 0 && l > n.maxLength {
				return false
			}
		}
		if n.pattern != nil && !n.pattern.MatchString(x) {
			return false
		}
	case nil, bool:
	default: // a number
		if (n.minimum != nil || n.maximum != nil) && !n.validNumber(v) {
			return false
		}
	}
	if len(n.anyOf) > 0 {
		matched := false
		for _, sub := range n.anyOf {
			if sub.valid(v) {
				matched = true
				break
			}
		}
		if !matched {
			return false
		}
	}
	return true
}

func (n *fastNode) validObject(obj map[string]any) bool {
	if n.minProps >= 0 && len(obj) < n.minProps || n.maxProps >= 0 && len(obj) > n.maxProps {
		return false
	}
	for _, name := range n.required {
		if _, ok := obj[name]; !ok {
			return false
		}
	}
	for name, value := range obj {
		evaluated := false
		if sub, ok := n.props[name]; ok {
			evaluated = true
			if !sub.valid(value) {
				return false
			}
		}
		for _, p := range n.patternProps {
			if p.match.MatchString(name) {
				evaluated = true
				if !p.node.valid(value) {
					return false
				}
			}
		}
		if !evaluated {
			switch n.additional {
			case additionalFalse:
				return false
			case additionalSchema:
				if !n.additionalNode.valid(value) {
					return false
				}
			}
		}
	}
	return true
}

// validNumber checks minimum and maximum: on int64 when both sides are plain integers, else on
// exact rationals as the library does.
func (n *fastNode) validNumber(v any) bool {
	if i, ok := plainInt(v); ok && (n.minimum == nil || n.minIsInt) && (n.maximum == nil || n.maxIsInt) {
		return (n.minimum == nil || i >= n.minimumInt) && (n.maximum == nil || i <= n.maximumInt)
	}
	r, ok := new(big.Rat).SetString(fmt.Sprintf("%v", v))
	if !ok {
		return false
	}
	return (n.minimum == nil || r.Cmp(n.minimum) >= 0) && (n.maximum == nil || r.Cmp(n.maximum) <= 0)
}

// plainInt reads a json.Number written as a plain integer of at most 18 digits, or a Go integer
// that fits int64.
func plainInt(v any) (int64, bool) {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		digits := s
		if len(digits) > 0 && digits[0] == '-' {
			digits = digits[1:]
		}
		if len(digits) == 0 || len(digits) > 18 {
			return 0, false
		}
		for i := 0; i < len(digits); i++ {
			if digits[i] < '0' || digits[i] > '9' {
				return 0, false
			}
		}
		i, err := strconv.ParseInt(s, 10, 64)
		return i, err == nil
	case int:
		return int64(x), true
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	}
	return 0, false
}

// isIntegerValue is the library's isInteger: the number as text is an exact integer.
func isIntegerValue(v any) bool {
	if _, ok := plainInt(v); ok {
		return true
	}
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	return ok && r.IsInt()
}

// fastEquals is the library's equals (JSON equality, numbers compared exactly); a value that is
// no JSON value is never equal (the library reports it as invalid).
func fastEquals(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !fastEquals(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !fastEquals(x[i], y[i]) {
				return false
			}
		}
		return true
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	}
	if fastTypeOf(a) != ftNumber || fastTypeOf(b) != ftNumber {
		return false
	}
	ra, ok1 := new(big.Rat).SetString(fmt.Sprint(a))
	rb, ok2 := new(big.Rat).SetString(fmt.Sprint(b))
	return ok1 && ok2 && ra.Cmp(rb) == 0
}
