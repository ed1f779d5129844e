// Package freelist keeps a bounded number of reusable values (large buffers) between uses.
//
// Unlike a sync.Pool, a garbage collection does not empty it: the sync engine's buffers are a few
// megabytes and, under load, a collection came every few uses, so a pool handed out new buffers
// that were grown again each time. Unlike a buffer per user, an idle server keeps at most the
// list's capacity of values, each of a size the list's keep function accepts.
package freelist

// List holds at most its capacity of values. It is safe for concurrent use.
type List[T any] struct {
	items chan T
	keep  func(T) bool
}

// New returns a list that keeps at most n values, only those keep accepts.
func New[T any](n int, keep func(T) bool) *List[T] {
	return &List[T]{items: make(chan T, n), keep: keep}
}

// Get takes a kept value, or reports false when there is none.
func (l *List[T]) Get() (T, bool) {
	select {
	case v := <-l.items:
		return v, true
	default:
		var zero T
		return zero, false
	}
}

// Put keeps v for a later Get, unless the list is full or keep refuses it.
func (l *List[T]) Put(v T) {
	if !l.keep(v) {
		return
	}
	select {
	case l.items <- v:
	default:
	}
}

// Len is the number of values kept.
func (l *List[T]) Len() int { return len(l.items) }
