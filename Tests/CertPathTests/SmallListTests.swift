@testable import CertPath
import Testing

/// `SmallList` holds its first element inline and the rest in an array; as a collection it must
/// behave like the array of the same elements.
@Suite("SmallList: first element inline")
struct SmallListTests {
    @Test("empty, one and several elements read back in order, like an array", arguments: [0, 1, 2, 5])
    func matchesArray(count: Int) {
        let elements = (0..<count).map { "e\($0)" }
        var appended = SmallList<String>()
        for element in elements { appended.append(element) }
        let built = SmallList(elements)
        #expect(Array(appended) == elements)
        #expect(Array(built) == elements)
        #expect(appended.count == count && appended.isEmpty == (count == 0))
        #expect(appended.indices == 0..<count)
        if count > 0 {
            #expect(appended[0] == "e0" && appended[count - 1] == "e\(count - 1)")
            #expect(appended.first == "e0" && appended.last == "e\(count - 1)")
        }
        #expect(appended.contains("e1") == (count > 1))
    }

    @Test("one element from CollectionOfOne")
    func single() {
        let list = SmallList(CollectionOfOne(42))
        #expect(Array(list) == [42])
    }
}
