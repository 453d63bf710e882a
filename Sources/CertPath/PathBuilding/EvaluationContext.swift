/// The resources one evaluation shares across everything it does, nested CRL-issuer paths included:
/// the validation time, the remaining ``Budget``, memoized signature results, the revocation
/// evidence being processed. No rules: each stage is given its policy. Created per `evaluate()`,
/// never shared between threads.
final class EvaluationContext {
    /// The budget the evaluation started with (the statistics are measured against it).
    let budget: Budget
    let validationTime: UnixTime
    let crypto: SignatureVerifier
    private(set) var remaining: Budget
    /// The limit that ran out, which stops the search.
    private(set) var exhausted: BudgetLimit?
    /// One remembered signature result.
    private typealias SignatureEntry = (key: SignatureKey, outcome: SignatureOutcome)
    /// The first results, scanned (an evaluation usually checks two or three: comparing the signed
    /// object's identity first is cheaper than hashing a key's bytes)…
    private var recentSignatures: [SignatureEntry] = []
    /// …and the rest, hashed (a mesh checks hundreds).
    private var signatureMemo: [SignatureKey: SignatureOutcome] = [:]
    /// Results scanned before the rest are hashed.
    private static let scannedSignatures = 16
    /// The stores consulted, whose anchors' keys are already loaded (see ``TrustStore``).
    let anchorStores: SmallList<TrustStore>

    /// A signed object (certificate or CRL) and the key checking its signature.
    struct SignatureKey: Hashable {
        let child: ObjectIdentifier
        let issuerKey: DERBytesKey
    }

    /// - Parameters:
    ///   - anchorStores: the trust stores consulted, whose anchors' keys are already loaded.
    init(budget: Budget, validationTime: UnixTime, crypto: SignatureVerifier, anchorStores: SmallList<TrustStore> = SmallList()) {
        self.budget = budget
        self.validationTime = validationTime
        self.crypto = crypto
        remaining = budget
        self.anchorStores = anchorStores
    }

    /// Spends one build step, and its ``buildStepCost`` of the cost budget; `false` (and the search
    /// stops) when either is not left.
    func spendBuildStep() -> Bool {
        guard exhausted == nil else { return false }
        guard remaining.buildSteps > 0 else {
            exhausted = .buildSteps
            return false
        }
        guard remaining.signatureCost >= Self.buildStepCost else {
            exhausted = .signatureCost
            return false
        }
        remaining.buildSteps -= 1
        remaining.signatureCost -= Self.buildStepCost
        return true
    }

    /// Charges the validation of a prospective path of `certificates` (its anchor included) to the
    /// cost budget, ``pathValidationCost`` each (issue 30: with every signature memoized, a mesh of
    /// same-key, same-name certificates made hundreds of validations free of charge: 60 ms for five
    /// certificates in the instrumented fuzz build). The validation is made even when the charge
    /// exhausts the budget (its attempt is needed); the search stops at its next step.
    func spendPathValidation(certificates: Int) {
        let cost = certificates * Self.pathValidationCost
        guard remaining.signatureCost >= cost else {
            remaining.signatureCost = 0
            exhaust(.signatureCost)
            return
        }
        remaining.signatureCost -= cost
    }

    /// The cost units (about a microsecond each, like ``SignatureCost``'s) of considering one issuer
    /// candidate: its ranking, loop and depth checks.
    static let buildStepCost = 1
    /// The cost units of validating one certificate of a prospective path (RFC 5280 6.1 and the
    /// profile, the purpose): measured at 0.5–2 µs in the release build on the reference machine.
    static let pathValidationCost = 2

    /// The name-constraint comparison allowance, shared across the evaluation.
    var nameConstraintComparisons: Int {
        get { remaining.nameConstraintComparisons }
        set { remaining.nameConstraintComparisons = newValue }
    }

    /// The work done so far.
    func statistics(prunedExplorations: Int, skippedCandidates: Int, abandonedCandidates: Int,
                    unrecordedAttempts: Int) -> EvaluationStatistics {
        var statistics = EvaluationStatistics()
        statistics.signatureChecks = budget.signatureChecks - remaining.signatureChecks
        statistics.signatureCost = budget.signatureCost - remaining.signatureCost
        statistics.buildSteps = budget.buildSteps - remaining.buildSteps
        statistics.nameConstraintComparisons = budget.nameConstraintComparisons - remaining.nameConstraintComparisons
        statistics.prunedExplorations = prunedExplorations
        statistics.skippedCandidates = skippedCandidates
        statistics.abandonedCandidates = abandonedCandidates
        statistics.unrecordedAttempts = unrecordedAttempts
        return statistics
    }

    /// Marks a limit as exhausted.
    func exhaust(_ limit: BudgetLimit) {
        if exhausted == nil { exhausted = limit }
    }

    /// Whether `child`'s signature verifies with `issuer`'s key (memoized; a fresh check spends one
    /// signature check of the budget and its ``SignatureCost``). `inheritedDSAParameters` are the working public key
    /// parameters (RFC 5280 6.1.4 (f)) when the issuer's DSA key has none.
    func signature(of child: Certificate, by issuer: Certificate, inheritedDSAParameters: DSAParameters? = nil) -> SignatureOutcome {
        let memoized = !issuer.hasDSAKeyWithoutParameters
        if memoized, let known = remembered(ObjectIdentifier(child), issuer.subjectPublicKeyInfoDER) { return known }
        let cost = SignatureCost.estimate(issuer.subjectPublicKeyLayout.key, in: issuer.der[...],
                                          messageLength: child.tbsCertificateBytes.count)
        // A candidate may fail: it is tried only while some of the failed-check allowance is left
        // (floods of look-alike issuers are bounded by it, whatever their order: at most one check
        // beyond it, itself bounded by the signature-cost budget). Not "while its whole cost is
        // left": a valid signature over a large TBSCertificate (1.8 MB, 1,800 units) was never tried.
        guard remaining.failedSignatureCost > 0 else {
            exhaust(.failedSignatureCost)
            return .budgetExhausted
        }
        guard spendSignatureCheck(cost: cost) else { return .budgetExhausted }
        let outcome = crypto.verify(child, issuer: issuer, inheritedDSAParameters: inheritedDSAParameters) { anchorKey(of: issuer) }
        if outcome != .valid { remaining.failedSignatureCost -= cost }
        if memoized { remember(SignatureKey(child: ObjectIdentifier(child), issuerKey: DERBytesKey(issuer.subjectPublicKeyInfoDER)), outcome) }
        return outcome
    }

    /// The key of `issuer` loaded with its store when it is an anchor of one, else `nil`.
    private func anchorKey(of issuer: Certificate) -> PublicKey? {
        // By index: a copy of a store would retain its tables, shared by every thread.
        for i in anchorStores.indices {
            if let key = anchorStores[i].storage.anchorKeys.key(for: issuer) { return key }
        }
        return nil
    }

    /// Whether `crl`'s signature verifies with `signer`'s key (RFC 5280 6.3.3 (g), (h)); memoized and
    /// budgeted like certificate signatures.
    func signature(of crl: CertificateRevocationList, by signer: Certificate, inheritedDSAParameters: DSAParameters? = nil) -> SignatureOutcome {
        let memoized = !signer.hasDSAKeyWithoutParameters
        if memoized, let known = remembered(ObjectIdentifier(crl), signer.subjectPublicKeyInfoDER) { return known }
        // Counted, not costed: CRLs are the caller's evidence, not the peer's input (the cost budget
        // bounds what a peer's chain can make the evaluation spend), and a complete CRL of a large CA
        // is megabytes long (hashing it is linear, like parsing it).
        guard spendSignatureCheck(cost: 0) else { return .budgetExhausted }
        let outcome = crypto.verify(crl, issuerKey: signer.subjectPublicKeyInfo, inheritedDSAParameters: inheritedDSAParameters)
        if memoized { remember(SignatureKey(child: ObjectIdentifier(crl), issuerKey: DERBytesKey(signer.subjectPublicKeyInfoDER)), outcome) }
        return outcome
    }

    /// Whether `response`'s signature over its ResponseData verifies with `signer`'s key (RFC 6960
    /// 4.2.1, 4.2.2.2); memoized, and budgeted with its estimated cost like a certificate signature
    /// (a stapled response is the peer's input).
    func signature(of response: OCSPResponse, by signer: Certificate) -> SignatureOutcome {
        guard let basic = response.basicResponse else { return .invalid }
        if let known = remembered(ObjectIdentifier(response), signer.subjectPublicKeyInfoDER) { return known }
        let cost = SignatureCost.estimate(signer.subjectPublicKeyLayout.key, in: signer.der[...], messageLength: basic.tbsResponseData.count)
        guard spendSignatureCheck(cost: cost) else { return .budgetExhausted }
        let outcome = crypto.verifySignedData(signature: basic.signature, unusedBits: basic.signatureUnusedBits, message: basic.tbsResponseData,
                                              algorithm: basic.signatureAlgorithm, issuerKey: signer.subjectPublicKeyInfo,
                                              inheritedDSAParameters: nil)
        remember(SignatureKey(child: ObjectIdentifier(response), issuerKey: DERBytesKey(signer.subjectPublicKeyInfoDER)), outcome)
        return outcome
    }

    // One signature check is answered from the memo, or spends one check of the budget.
    // A signature is identified by the signed object and the verifying key (not the issuing
    // certificate: in a cross-signed mesh many certificates carry one key, and the answer is the
    // same); keys that inherit DSA parameters depend on the path above them and are never memoized.
    // (Plain functions rather than one taking the check as a closure: a closure stored or passed
    // on would retain what it captures, the anchor among them, on every check. The anchor-key
    // closure given to the verifier is non-escaping and called only when a key is loaded.)

    /// The remembered outcome of the signature of `signed` by the key `issuerKey` (SPKI DER), if any.
    private func remembered(_ signed: ObjectIdentifier, _ issuerKey: ArraySlice<UInt8>) -> SignatureOutcome? {
        // The signed object is compared first (no bytes read), the key only when it matches.
        func matches(_ entry: SignatureKey) -> Bool { entry.child == signed && Name.bytesEqual(entry.issuerKey.bytes, issuerKey) }
        for entry in recentSignatures where matches(entry.key) { return entry.outcome }
        if !signatureMemo.isEmpty, let known = signatureMemo[SignatureKey(child: signed, issuerKey: DERBytesKey(issuerKey))] { return known }
        return nil
    }

    /// Spends one signature check of the budget and its estimated cost for the verification of an
    /// SCT (RFC 6962 3.2) by the log whose DER SubjectPublicKeyInfo is `logKey`, over `messageLength`
    /// bytes: SCTs are the peer's input, budgeted as its certificates' signatures are. `false` (and
    /// the budget marked exhausted) when not left.
    func spendSCTVerification(logKey: [UInt8], messageLength: Int) -> Bool {
        guard let spki = try? SubjectPublicKeyInfo(derEncoded: logKey) else { return spendSignatureCheck(cost: 0) }
        return spendSignatureCheck(cost: SignatureCost.estimate(for: spki, messageLength: messageLength))
    }

    /// Spends one signature check of the budget and its estimated `cost`; `false` (and the budget
    /// marked exhausted) when either is not left.
    private func spendSignatureCheck(cost: Int) -> Bool {
        guard remaining.signatureChecks > 0 else {
            exhaust(.signatureChecks)
            return false
        }
        guard remaining.signatureCost >= cost else {
            exhaust(.signatureCost)
            return false
        }
        remaining.signatureChecks -= 1
        remaining.signatureCost -= cost
        return true
    }

    /// Remembers `outcome` for `key`.
    private func remember(_ key: SignatureKey, _ outcome: SignatureOutcome) {
        if recentSignatures.count < Self.scannedSignatures {
            // One allocation for all the scanned ones (growing 1, 2, 4… made two for a usual chain).
            if recentSignatures.isEmpty { recentSignatures.reserveCapacity(Self.scannedSignatures) }
            recentSignatures.append((key, outcome))
        } else {
            signatureMemo[key] = outcome
        }
    }

}
