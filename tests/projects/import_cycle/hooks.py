import engine


def after_backward(model, step):
    print(f"step {step}: grad norm {engine.grad_norm(model):.3f}")
