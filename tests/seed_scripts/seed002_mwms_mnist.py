# The seed chapter's MultiWorkerMirroredStrategy script (shared/seeds/002, "Step 2: the Python
# script for training, run on all workers"), verbatim except its three import lines, which
# name sim.tf instead of tensorflow. Without TF_CONFIG it trains on one process with
# MirroredStrategy; under `python -m sim launch` each worker gets its TF_CONFIG.
import sim.tf as tf
from sim.tf import keras
from sim.tf.keras import layers
import numpy as np
import os
import json

# --- This part is for simulation if not running in a real multi-worker env ---
# In a real multi-worker setup, TF_CONFIG is an environment variable.
# To simulate locally for this tutorial, we can try to set it if not present.
if 'TF_CONFIG' not in os.environ:
    # Simulate a single worker setup if no TF_CONFIG is found for demonstration purposes.
    # For true multi-worker, TF_CONFIG must be set externally for each worker.
    print("TF_CONFIG not set. Simulating single-worker strategy or defaulting.")
    # strategy = tf.distribute.get_strategy() # Gets default strategy
    strategy = tf.distribute.MirroredStrategy() # For local multi-GPU, or fallback
    if not tf.config.list_physical_devices('GPU'):
        print("No GPUs found, MirroredStrategy will run on CPU. May be slow.")
else:
    # If TF_CONFIG is set, MultiWorkerMirroredStrategy will be used.
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    # You can access cluster information if needed:
    # cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
    # print(f"Task type: {cluster_resolver.task_type}, Task ID: {cluster_resolver.task_id}")
    # print(f"Cluster spec: {cluster_resolver.cluster_spec()}")

print(f'Number of devices: {strategy.num_replicas_in_sync}')

# Hyperparameters
BUFFER_SIZE = 10000
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
EPOCHS = 3

# Create a simple dataset (e.g., MNIST)
(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.astype('float32') / 255.0
x_train = np.expand_dims(x_train, axis=-1)
y_train = keras.utils.to_categorical(y_train, num_classes=10)

train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train))
train_dataset = train_dataset.shuffle(BUFFER_SIZE).batch(GLOBAL_BATCH_SIZE)

# Model creation and compilation within strategy.scope()
with strategy.scope():
    model = keras.Sequential([
        layers.Conv2D(32, kernel_size=(3, 3), activation='relu', input_shape=(28, 28, 1)),
        layers.MaxPooling2D(pool_size=(2, 2)),
        layers.Flatten(),
        layers.Dense(10, activation='softmax')
    ])
    model.compile(optimizer='adam',
                  loss='categorical_crossentropy',
                  metrics=['accuracy'])

print("Model created and compiled within strategy scope.")

# List devices visible to TensorFlow within this strategy
# In a real multi-worker setup, this would show devices across the cluster from the perspective
# of the current worker and strategy. For a local MirroredStrategy, it lists local GPUs/CPUs.
# For TF1.x style device listing (sess.list_devices()), the closest in TF2 is checking
# physical devices and how the strategy maps to them.
print("\nPhysical Devices available to TensorFlow:")
for device_type in ['CPU', 'GPU']:
    devices = tf.config.list_physical_devices(device_type)
    if devices:
        print(f"{device_type}s: {devices}")
    else:
        print(f"No {device_type}s found.")

# Train the model
if strategy.num_replicas_in_sync > 0: # Ensure we have replicas
    print(f"\nStarting training on {strategy.num_replicas_in_sync} replicas...")
    model.fit(train_dataset, epochs=EPOCHS)
    print("Training complete.")
else:
    print("No replicas available for training. Check strategy setup.")

# For more details on distributed training:
# https://www.tensorflow.org/guide/distributed_training
