// A list whose first element is held inline: the lists an evaluation makes per certificate (issuer
// candidates) or per evaluation (trust stores) usually hold one element, and are then made
// without a heap allocation.

/// An ordered list with its first element stored inline and the others in an array.
///
/// A random-access collection indexed from 0; appending is the only change it allows.
struct SmallList<Element>: RandomAccessCollection {
    private var first: Element?
    private var rest: [Element] = []

    /// An empty list.
    init() {}

    /// The elements of `elements`, in order.
    init<S: Sequence>(_ elements: S) where S.Element == Element {
        for element in elements { append(element) }
    }

    var startIndex: Int { 0 }
    var endIndex: Int { first == nil ? 0 : 1 + rest.count }
    subscript(position: Int) -> Element { position == 0 ? first! : rest[position - 1] }

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        if first == nil { first = element } else { rest.append(element) }
    }
}

extension SmallList: Sendable where Element: Sendable {}
