import NIOCore
import NIOHTTPTypes

/// Closes connections that hold a place without using it (DESIGN §13), so that a few hundred half-sent
/// requests from anyone on the network cannot use up the server's connections or file descriptors:
///
/// - a request's head must arrive within `headDeadline` of the connection opening or of the previous answer
///   (this is also the idle limit of a kept-alive connection), and
/// - once a body is being received, some of it must arrive at least every `bodyDeadline`; a stalled upload is
///   cut off, which ends its handler's body stream and so frees its temporary file.
///
/// While a handler works on a request whose body has fully arrived (processing a photo, say), no deadline runs.
/// A connection waiting for a head also takes one of its address's places in `waitingHeads`, so one address cannot
/// hold the server's connections with half-sent requests however fast it reopens them.
final class ConnectionDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        case waitingForHead
        case receivingBody
        case answering
    }

    private let headDeadline: TimeAmount
    private let bodyDeadline: TimeAmount
    private let waitingHeads: WaitingHeads?
    private var state = State.waitingForHead
    private var timer: Scheduled<Void>?
    /// The peer's address, read once: a closed channel may no longer say it.
    private var address: String?

    init(headDeadline: TimeAmount, bodyDeadline: TimeAmount, waitingHeads: WaitingHeads? = nil) {
        self.headDeadline = headDeadline
        self.bodyDeadline = bodyDeadline
        self.waitingHeads = waitingHeads
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { waitForHead(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        waitForHead(context: context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        stopWaiting(context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        stopWaiting(context: context)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            state = .receivingBody
            stopWaiting(context: context)
            arm(bodyDeadline, context: context)
        case .body:
            arm(bodyDeadline, context: context)
        case .end:
            state = .answering
            disarm()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data), state == .answering {
            state = .waitingForHead
            waitForHead(context: context)
        }
        context.write(data, promise: promise)
    }

    private func waitForHead(context: ChannelHandlerContext) {
        arm(headDeadline, context: context)
        address = address ?? context.channel.remoteAddress?.ipAddress
        guard let waitingHeads, let address else { return }
        waitingHeads.startWaiting(context.channel, from: address)?.close(promise: nil)
    }

    private func stopWaiting(context: ChannelHandlerContext) {
        guard let waitingHeads, let address else { return }
        waitingHeads.stopWaiting(context.channel, from: address)
    }

    private func arm(_ deadline: TimeAmount, context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) {
            channel.close(promise: nil)
        }
    }

    private func disarm() {
        timer?.cancel()
        timer = nil
    }
}
